"""A summarizer that takes its client from the caller (tests pass a fake), or makes one."""

from typing import Optional

from openai import OpenAI


class Summarizer:
    def __init__(self, client: Optional[OpenAI] = None, model: str = "gpt-4o-mini"):
        self.client = client or OpenAI()
        self.model = model

    def chat(self, messages):
        return self.client.responses.create(model=self.model, input=messages)

    def summarize(self, text: str) -> str:
        response = self.chat([{"role": "user", "content": f"Summarize in one line: {text}"}])
        return response.output_text or ""


if __name__ == "__main__":
    print(Summarizer(OpenAI()).summarize("The meeting moved to Thursday; bring the Q3 numbers."))
