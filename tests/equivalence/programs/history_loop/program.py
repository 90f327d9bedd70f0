"""A chat loop that keeps the whole history in a list and sends it every time."""

from openai import OpenAI

QUESTIONS = [
    "How long should I boil an egg for a runny yolk?",
    "And for a hard one?",
    "Should I put it in cold water afterwards?",
]


def main() -> None:
    client = OpenAI()
    history = [{"role": "system", "content": "You are a terse cooking assistant."}]
    for question in QUESTIONS:
        history.append({"role": "user", "content": question})
        completion = client.chat.completions.create(model="gpt-4o-mini", messages=history)
        answer = completion.choices[0].message.content
        history.append({"role": "assistant", "content": answer})
        print(f"Q: {question}")
        print(f"A: {answer}")
    print(f"{len(history)} messages in the conversation")


if __name__ == "__main__":
    main()
