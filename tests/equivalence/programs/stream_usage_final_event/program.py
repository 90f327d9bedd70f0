"""Stream an answer, then report the token usage sent with the end of the stream."""

from openai import OpenAI


def main() -> None:
    client = OpenAI()
    stream = client.chat.completions.create(
        model="gpt-4o-mini",
        messages=[{"role": "user", "content": "Give me a tip for learning Python."}],
        stream=True,
        stream_options={"include_usage": True},
    )
    answer = ""
    usage = None
    for chunk in stream:
        if chunk.choices and chunk.choices[0].delta.content:
            answer += chunk.choices[0].delta.content
        if chunk.usage is not None:
            print(f"[stream ended after {chunk.usage.completion_tokens} tokens]")
            usage = chunk.usage
    print(answer)
    if usage is not None:
        print(f"prompt tokens: {usage.prompt_tokens} ({usage.prompt_tokens_details.cached_tokens} cached)")
        print(f"completion tokens: {usage.completion_tokens}")
        print(f"total tokens: {usage.total_tokens}")


if __name__ == "__main__":
    main()
