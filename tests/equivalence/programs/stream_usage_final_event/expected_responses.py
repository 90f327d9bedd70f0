"""Stream an answer, then report the token usage sent with the end of the stream."""

from openai import OpenAI


def main() -> None:
    client = OpenAI()
    stream = client.responses.create(
        model="gpt-4o-mini",
        input="Give me a tip for learning Python.",
        stream=True,
    )
    answer = ""
    usage = None
    for event in stream:
        if event.type == "response.output_text.delta":
            answer += event.delta
        if event.type in ("response.completed", "response.incomplete") and event.response.usage is not None:
            print(f"[stream ended after {event.response.usage.output_tokens} tokens]")
            usage = event.response.usage
    print(answer)
    if usage is not None:
        print(f"prompt tokens: {usage.input_tokens} ({usage.input_tokens_details.cached_tokens} cached)")
        print(f"completion tokens: {usage.output_tokens}")
        print(f"total tokens: {usage.total_tokens}")


if __name__ == "__main__":
    main()
