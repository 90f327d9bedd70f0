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
    completion = client.chat.completions.create(
        model="gpt-4o-mini",
        messages=[
            {"role": "system", "content": "You are a helpful assistant that replies in one short sentence."},
            {"role": "user", "content": question},
        ],
        stream=True,
        stream_options={"include_usage": True},
    )
    for part in completion:
        if len(part.choices) == 0:
            continue
        if token := part.choices[0].delta.content or "":
            msg.stream_token(token)
    msg.update()
    return msg.content


def summarize(conversation: str) -> str:
    stream = client.chat.completions.create(
        model="gpt-4o-mini",
        messages=[{"role": "user", "content": f"Summarise in a few words: {conversation}"}],
        stream=True,
    )
    summary = ""
    print("summary: ", end="")
    for chunk in stream:
        token = chunk.choices[0].delta.content or ""
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
