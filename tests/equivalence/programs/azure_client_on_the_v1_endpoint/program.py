"""A support bot on an Azure OpenAI resource, built the way Azure's samples built clients
before the v1 endpoint: a dated `api_version`, the endpoint and key from the environment."""

import os

from openai import AzureOpenAI

client = AzureOpenAI(
    api_key=os.environ["AZURE_OPENAI_API_KEY"],
    api_version="2024-06-01",
    azure_endpoint=os.environ["AZURE_OPENAI_ENDPOINT"],
)


def answer(question: str) -> str:
    completion = client.chat.completions.create(
        model="support-gpt-4o",  # the deployment's name
        messages=[
            {"role": "system", "content": "You answer in one sentence."},
            {"role": "user", "content": question},
        ],
        max_tokens=200,
    )
    return completion.choices[0].message.content or ""


if __name__ == "__main__":
    for question in ("How do I reset my password?", "Where is my invoice?"):
        print(f"{question} -> {answer(question)}")
