"""A terse chat: the reply is kept in a name, added to the history and printed."""

from openai import OpenAI

client = OpenAI()
history: list = [{"role": "system", "content": "You are terse."}]


def ask(question: str) -> str:
    history.append({"role": "user", "content": question})
    completion = client.responses.create(model="gpt-4o-mini", input=history)
    reply = completion.output_text
    history.append({"role": "assistant", "content": reply})
    print(f"> {question}\n{reply}")
    return reply


if __name__ == "__main__":
    ask("Capital of France?")
    answer = ask("And its population?")
    print(len(answer), "characters;", len(history), "messages")
