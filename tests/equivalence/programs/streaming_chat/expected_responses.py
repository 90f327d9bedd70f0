"""Stream an answer to the terminal as it is generated, then report the token count."""

from openai import OpenAI


def main() -> None:
    client = OpenAI()
    stream = client.responses.create(
        model="gpt-4o-mini",
        input="Explain in two sentences why the sky is blue.",
        stream=True,
    )
    usage = None
    for event in stream:
        if event.type == "response.output_text.delta":
            print(event.delta, end="", flush=True)
        if event.type == "response.completed":
            usage = event.response.usage
    print()
    print(f"tokens used: {usage.total_tokens}")


if __name__ == "__main__":
    main()
