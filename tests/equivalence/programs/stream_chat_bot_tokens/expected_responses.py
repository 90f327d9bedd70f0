"""A chat bot that streams each answer token by token into a message on screen, then keeps a
short summary of the conversation."""

from openai import OpenAI

client = OpenAI()


class Message:
    """A message on screen that grows as the tokens arrive."""

    def __init__(self) -> None:
        self.content = ""

    def stream_token(self, token: str) -> None:
        self.content += token
        print(token, end="", flush=True)

    def update(self) -> None:
        print()
        print(f"[{len(self.content)} characters]")


def answer(question: str) -> str:
    msg = Message()
    completion = client.responses.create(
        model="gpt-4o-mini",
        instructions="You are a helpful assistant that replies in one short sentence.",
        input=question,
        stream=True,
    )
    for event in completion:
        if event.type == "response.output_text.delta" and (token := event.delta):
            msg.stream_token(token)
    msg.update()
    return msg.content


def summarize(conversation: str) -> str:
    stream = client.responses.create(
        model="gpt-4o-mini",
        input=f"Summarise in a few words: {conversation}",
        stream=True,
    )
    summary = ""
    print("summary: ", end="")
    for event in stream:
        if event.type == "response.output_text.delta":
            token = event.delta
            print(token, end="", flush=True)
            if token:
                summary += token
    print()
    return summary


def main() -> None:
    question = "Why do cats purr?"
    reply = answer(question)
    summary = summarize(f"Q: {question} A: {reply}")
    print(f"summary has {len(summary.split())} words")


if __name__ == "__main__":
    main()
