"""Stream with the SDK helper, show the text as it comes, then read the final completion."""

from openai import OpenAI


def main() -> None:
    client = OpenAI()
    with client.chat.completions.stream(
        model="gpt-4o-mini",
        messages=[
            {"role": "system", "content": "You answer in one sentence."},
            {"role": "user", "content": "What is a lighthouse for?"},
        ],
        stream_options={"include_usage": True},
    ) as stream:
        for event in stream:
            if event.type == "content.delta":
                print(event.delta, end="", flush=True)
            elif event.type == "content.done":
                print()
                print(f"({len(event.content)} characters)")
        completion = stream.get_final_completion()
    print(f"final answer: {completion.choices[0].message.content}")
    if completion.usage is not None:
        print(f"tokens: {completion.usage.prompt_tokens} in, {completion.usage.completion_tokens} out")


if __name__ == "__main__":
    main()
