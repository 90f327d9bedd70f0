"""The desk's OpenAI client and model, shared by its modules."""

from openai import OpenAI

MODEL = "gpt-4o-mini"
client = OpenAI(max_retries=0)


def make_client() -> OpenAI:
    return OpenAI(max_retries=0, timeout=20)
