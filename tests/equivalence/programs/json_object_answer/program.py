"""Ask for a JSON object (JSON mode) and read it with json.loads."""

import json

from openai import OpenAI


def main() -> None:
    client = OpenAI()
    completion = client.chat.completions.create(
        model="gpt-4o-mini",
        messages=[
            {"role": "system", "content": "Answer in JSON with the keys city and population."},
            {"role": "user", "content": "Which is the largest city in Japan?"},
        ],
        response_format={"type": "json_object"},
    )
    data = json.loads(completion.choices[0].message.content)
    print(f"{data['city']}: {data['population']:,} inhabitants")
    print("tokens:", completion.usage.total_tokens)


if __name__ == "__main__":
    main()
