"""Ask for a story on a small token budget, and retry with a bigger one if it was cut off."""

from openai import OpenAI

PROMPT = [{"role": "user", "content": "Tell me a bedtime story about a lighthouse keeper."}]


def main() -> None:
    client = OpenAI()
    completion = client.chat.completions.create(model="gpt-4o-mini", messages=PROMPT, max_tokens=32)
    if completion.choices[0].finish_reason == "length":
        print(f"cut off after: {completion.choices[0].message.content!r}")
        print("retrying with a bigger budget")
        completion = client.chat.completions.create(model="gpt-4o-mini", messages=PROMPT, max_tokens=1024)
    if completion.choices[0].finish_reason == "stop":
        print("complete story:")
    print(completion.choices[0].message.content)


if __name__ == "__main__":
    main()
