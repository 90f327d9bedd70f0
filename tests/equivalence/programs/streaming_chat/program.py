"""Stream an answer to the terminal as it is generated, then report the token count."""

from openai import OpenAI


def main() -> None:
    client = OpenAI()
    stream = client.chat.completions.create(
        model="gpt-4o-mini",
        messages=[{"role": "user", "content": "Explain in two sentences why the sky is blue."}],
        stream=True,
        stream_options={"include_usage": True},
    )
    usage = None
    for chunk in stream:
        if chunk.choices and chunk.choices[0].delta.content:
            print(chunk.choices[0].delta.content, end="", flush=True)
        if chunk.usage:
            usage = chunk.usage
    print()
    print(f"tokens used: {usage.total_tokens}")


if __name__ == "__main__":
    main()
