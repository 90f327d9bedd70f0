"""Continue a conversation whose earlier turns are written out in the call."""

from openai import OpenAI

client = OpenAI()

completion = client.chat.completions.create(
    model="gpt-4o",
    messages=[
        {"role": "system", "content": "You are a patient maths tutor. Keep answers short."},
        {"role": "user", "content": "What is a prime number?"},
        {"role": "assistant", "content": "A whole number above 1 whose only divisors are 1 and itself."},
        {"role": "user", "content": "Is 51 one?"},
    ],
    max_tokens=200,
)

print(completion.choices[0].message.content)
