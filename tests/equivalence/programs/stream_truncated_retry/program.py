"""Stream a story on a small token budget; when it is cut off, stream it again with a bigger one."""

from openai import OpenAI

PROMPT = [{"role": "user", "content": "Tell me a short story about a lighthouse."}]


def main() -> None:
    client = OpenAI()
    for budget in (32, 256):
        stream = client.chat.completions.create(model="gpt-4o-mini", messages=PROMPT, max_tokens=budget, stream=True)
        truncated = False
        for chunk in stream:
            choice = chunk.choices[0]
            if choice.delta.content:
                print(choice.delta.content, end="", flush=True)
            if choice.finish_reason == "length":
                truncated = True
                print(f"\n[cut off at {budget} tokens, trying again]")
            elif choice.finish_reason == "stop":
                print("\n[complete]")
        if not truncated:
            break


if __name__ == "__main__":
    main()
