"""A support bot on an Azure OpenAI resource, built the way Azure's samples built clients
before the v1 endpoint: a dated `api_version`, the endpoint and key from the environment."""

import os

from openai import OpenAI

client = OpenAI(
    api_key=os.environ["AZURE_OPENAI_API_KEY"],
    base_url=os.environ["AZURE_OPENAI_ENDPOINT"].rstrip("/") + "/openai/v1/",
)


def answer(question: str) -> str:
    completion = client.responses.create(
        model="support-gpt-4o",  # the deployment's name
        instructions="You answer in one sentence.",
        input=question,
        max_output_tokens=200,
    )
    return completion.output_text or ""


if __name__ == "__main__":
    for question in ("How do I reset my password?", "Where is my invoice?"):
        print(f"{question} -> {answer(question)}")
