"""A research helper whose query function can stream, though none of its callers asks it to."""

import openai

client = openai.OpenAI()


def query_openai(instructions: str, question: str, stream=False):
    messages = [{"role": "system", "content": instructions}, {"role": "user", "content": question}]
    response = client.responses.create(model="gpt-4o-mini", input=messages, stream=stream)
    content = response.output_text
    return content


def main() -> None:
    query = query_openai("Write one web search query.", "How do tides work?")
    print(f"query: {query}")
    summary = query_openai("Summarise in one sentence.", f"Results for {query}", stream=False)
    print(f"summary: {summary}")


if __name__ == "__main__":
    main()
