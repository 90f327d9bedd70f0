"""Answer a batch of questions and report what they cost in tokens."""

from openai import OpenAI

QUESTIONS = [
    "Name the largest planet of the solar system.",
    "How many moons does Mars have?",
    "What is the hottest planet?",
]


def main() -> None:
    client = OpenAI()
    prompt_total = completion_total = grand_total = cached_total = 0
    for question in QUESTIONS:
        completion = client.responses.create(
            model="gpt-4o-mini",
            input=question,
        )
        usage = completion.usage
        print(f"{completion.output_text} [{usage.input_tokens} in / {usage.output_tokens} out]")
        prompt_total += usage.input_tokens
        completion_total += usage.output_tokens
        grand_total += usage.total_tokens
        cached_total += usage.input_tokens_details.cached_tokens
    print(f"prompt tokens: {prompt_total}")
    print(f"completion tokens: {completion_total}")
    print(f"total tokens: {grand_total}")
    print(f"cached prompt tokens: {cached_total}")


if __name__ == "__main__":
    main()
