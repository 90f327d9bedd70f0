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
        completion = client.chat.completions.create(
            model="gpt-4o-mini",
            messages=[{"role": "user", "content": question}],
        )
        usage = completion.usage
        print(f"{completion.choices[0].message.content} [{usage.prompt_tokens} in / {usage.completion_tokens} out]")
        prompt_total += usage.prompt_tokens
        completion_total += usage.completion_tokens
        grand_total += usage.total_tokens
        cached_total += usage.prompt_tokens_details.cached_tokens
    print(f"prompt tokens: {prompt_total}")
    print(f"completion tokens: {completion_total}")
    print(f"total tokens: {grand_total}")
    print(f"cached prompt tokens: {cached_total}")


if __name__ == "__main__":
    main()
