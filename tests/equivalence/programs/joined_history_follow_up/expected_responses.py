"""A riddle game: asks for a riddle, then for its answer, sending the riddle back as history."""

from openai import OpenAI

client = OpenAI()
RULES: list = [{"role": "system", "content": "You tell short riddles."}]


def main() -> None:
    history: list = [{"role": "user", "content": "Tell me a riddle."}]
    riddle = client.responses.create(model="gpt-4o-mini", input=RULES + history)
    print("Riddle:", riddle.output_text)
    answer = client.responses.create(
        model="gpt-4o-mini",
        input=RULES + history + [*riddle.output] + [{"role": "user", "content": "What is the answer?"}],
    )
    print("Answer:", answer.output_text)


if __name__ == "__main__":
    main()
