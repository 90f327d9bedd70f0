"""A support assistant: one class wraps the client, its `chat` method the call, the rest reads it."""

from openai import OpenAI


class Assistant:
    def __init__(self, model: str = "gpt-4o-mini", api_key=None):
        self.model = model
        self.client = OpenAI(api_key=api_key)

    def chat(self, messages, **kwargs):
        return self.client.chat.completions.create(model=self.model, messages=messages, **kwargs)

    def ask(self, prompt: str, system=None) -> str:
        messages = []
        if system:
            messages.append({"role": "system", "content": system})
        messages.append({"role": "user", "content": prompt})
        response = self.chat(messages, temperature=0.3)
        print(f"[{response.usage.prompt_tokens} in, {response.usage.completion_tokens} out]")
        return response.choices[0].message.content


def main() -> None:
    assistant = Assistant()
    print(assistant.ask("How do I reset my password?", system="Answer in one line."))
    print(assistant.ask("And my username?"))


if __name__ == "__main__":
    main()
