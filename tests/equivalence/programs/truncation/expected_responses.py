"""Ask for a story on a small token budget, and retry with a bigger one if it was cut off."""

from openai import OpenAI

PROMPT = [{"role": "user", "content": "Tell me a bedtime story about a lighthouse keeper."}]


def main() -> None:
    client = OpenAI()
    completion = client.responses.create(model="gpt-4o-mini", input=PROMPT, max_output_tokens=32)
    if completion.incomplete_details is not None and completion.incomplete_details.reason == "max_output_tokens":
        print(f"cut off after: {completion.output_text!r}")
        print("retrying with a bigger budget")
        completion = client.responses.create(model="gpt-4o-mini", input=PROMPT, max_output_tokens=1024)
    if completion.status == "completed":
        print("complete story:")
    print(completion.output_text)


if __name__ == "__main__":
    main()
