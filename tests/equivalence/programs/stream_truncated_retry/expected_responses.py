"""Stream a story on a small token budget; when it is cut off, stream it again with a bigger one."""

from openai import OpenAI

PROMPT = [{"role": "user", "content": "Tell me a short story about a lighthouse."}]


def main() -> None:
    client = OpenAI()
    for budget in (32, 256):
        stream = client.responses.create(model="gpt-4o-mini", input=PROMPT, max_output_tokens=budget, stream=True)
        truncated = False
        for event in stream:
            if event.type == "response.output_text.delta":
                print(event.delta, end="", flush=True)
            if (
                event.type == "response.incomplete"
                and event.response.incomplete_details is not None
                and event.response.incomplete_details.reason == "max_output_tokens"
            ):
                truncated = True
                print(f"\n[cut off at {budget} tokens, trying again]")
            elif event.type == "response.completed":
                print("\n[complete]")
        if not truncated:
            break


if __name__ == "__main__":
    main()
