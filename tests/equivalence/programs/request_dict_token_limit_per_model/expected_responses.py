"""One helper for several models: the token limit goes under the name each model family takes."""

from typing import Any, Dict

from openai import OpenAI

client = OpenAI()


def complete(prompt: str, model: str) -> str:
    params: Dict[str, Any] = {"model": model, "input": prompt}
    if model.startswith("o"):
        params["max_output_tokens"] = 2000
    else:
        params["max_output_tokens"] = 300
        params["temperature"] = 0.2
    response = client.responses.create(**params)
    return response.output_text or ""


if __name__ == "__main__":
    print(complete("Name a prime number.", "o4-mini"))
    print(complete("Name a colour.", "gpt-4o-mini"))
