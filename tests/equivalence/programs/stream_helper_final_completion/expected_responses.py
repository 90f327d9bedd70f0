"""Stream with the SDK helper, show the text as it comes, then read the final completion."""

from openai import OpenAI


def main() -> None:
    client = OpenAI()
    with client.responses.stream(
        model="gpt-4o-mini",
        instructions="You answer in one sentence.",
        input="What is a lighthouse for?",
    ) as stream:
        for event in stream:
            if event.type == "response.output_text.delta":
                print(event.delta, end="", flush=True)
            elif event.type == "response.output_text.done":
                print()
                print(f"({len(event.text)} characters)")
        completion = stream.get_final_response()
    print(f"final answer: {completion.output_text}")
    if completion.usage is not None:
        print(f"tokens: {completion.usage.input_tokens} in, {completion.usage.output_tokens} out")


if __name__ == "__main__":
    main()
