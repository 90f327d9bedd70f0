"""A small Chat Completions program: `migrator diff examples/quickstart.py` shows its migration."""

from openai import OpenAI

client = OpenAI()


def ask(question: str) -> str:
    resp = client.chat.completions.create(
        model="gpt-4o-mini",
        messages=[
            {"role": "system", "content": "Answer in one short sentence."},
            {"role": "user", "content": question},
        ],
        max_tokens=200,
    )
    if resp.choices[0].finish_reason == "length":
        print("(answer cut short)")
    if resp.usage is not None:
        print(f"tokens: {resp.usage.prompt_tokens} in, {resp.usage.completion_tokens} out")
    return resp.choices[0].message.content or ""


if __name__ == "__main__":
    print(ask("Why is the sky blue?"))
