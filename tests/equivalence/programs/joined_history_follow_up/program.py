"""A riddle game: asks for a riddle, then for its answer, sending the riddle back as history."""

from openai import OpenAI

client = OpenAI()
RULES: list = [{"role": "system", "content": "You tell short riddles."}]


def main() -> None:
    history: list = [{"role": "user", "content": "Tell me a riddle."}]
    riddle = client.chat.completions.create(model="gpt-4o-mini", messages=RULES + history)
    print("Riddle:", riddle.choices[0].message.content)
    answer = client.chat.completions.create(
        model="gpt-4o-mini",
        messages=RULES + history + [riddle.choices[0].message] + [{"role": "user", "content": "What is the answer?"}],
    )
    print("Answer:", answer.choices[0].message.content)


if __name__ == "__main__":
    main()
