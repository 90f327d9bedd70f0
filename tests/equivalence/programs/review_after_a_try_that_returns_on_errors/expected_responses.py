"""A code reviewer: the call sits in a try whose handlers return, the answer is read after it."""

import openai
from openai import OpenAI

client = OpenAI()


def review(diff: str) -> dict:
    try:
        response = client.responses.create(
            model="gpt-4o",
            instructions="You review code.",
            input=diff,
            max_output_tokens=1024,
        )
    except openai.APIConnectionError as error:
        return {"error": str(error)}
    return {"review": response.output_text, "truncated": response.incomplete_details is not None and response.incomplete_details.reason == "max_output_tokens"}


if __name__ == "__main__":
    print(review("- x = 1\n+ x = 2"))
