"""Summarise a support ticket in one sentence."""

from openai import OpenAI

TICKET = """\
Hi, since the password reset yesterday I can't log in to the dashboard any more.
The reset link worked, but the new password is refused. Could you unlock my account?
"""


def main() -> None:
    client = OpenAI()
    completion = client.chat.completions.create(
        model="gpt-4o-mini",
        messages=[
            {"role": "system", "content": "You summarise support tickets in one sentence."},
            {"role": "user", "content": TICKET},
        ],
        temperature=0.2,
    )
    print("Summary:", completion.choices[0].message.content)


if __name__ == "__main__":
    main()
