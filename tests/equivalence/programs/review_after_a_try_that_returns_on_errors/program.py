"""A code reviewer: the call sits in a try whose handlers return, the answer is read after it."""

import openai
from openai import OpenAI

client = OpenAI()


def review(diff: str) -> dict:
    try:
        response = client.chat.completions.create(
            model="gpt-4o",
            messages=[{"role": "system", "content": "You review code."}, {"role": "user", "content": diff}],
            max_tokens=1024,
        )
    except openai.APIConnectionError as error:
        return {"error": str(error)}
    choice = response.choices[0]
    return {"review": choice.message.content, "truncated": choice.finish_reason == "length"}


if __name__ == "__main__":
    print(review("- x = 1\n+ x = 2"))
