"""Ask for a JSON object (JSON mode) and read it with json.loads."""

import json

from openai import OpenAI


def main() -> None:
    client = OpenAI()
    completion = client.responses.create(
        model="gpt-4o-mini",
        input=[
            {"role": "system", "content": "Answer in JSON with the keys city and population."},
            {"role": "user", "content": "Which is the largest city in Japan?"},
        ],
        text={"format": {"type": "json_object"}},
    )
    data = json.loads(completion.output_text)
    print(f"{data['city']}: {data['population']:,} inhabitants")
    print("tokens:", completion.usage.total_tokens)


if __name__ == "__main__":
    main()
