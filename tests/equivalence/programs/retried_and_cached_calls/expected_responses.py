"""A call retried with tenacity and a definition cached with lru_cache, as applications wrap them."""

from functools import lru_cache

from openai import OpenAI
from tenacity import retry, stop_after_attempt, wait_fixed

client = OpenAI()


@retry(wait=wait_fixed(0), stop=stop_after_attempt(3))
def complete(prompt: str):
    return client.responses.create(model="gpt-4o-mini", input=prompt)


@lru_cache(maxsize=16)
def define(word: str):
    return client.responses.create(model="gpt-4o-mini", input=f"Define {word}.")


def main() -> None:
    print(complete("Tell me a joke.").output_text)
    print(define("ephemeral").output_text)
    print(define("ephemeral").output_text)  # cached: no second request


if __name__ == "__main__":
    main()
