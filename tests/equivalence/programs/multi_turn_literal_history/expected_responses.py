"""Continue a conversation whose earlier turns are written out in the call."""

from openai import OpenAI

client = OpenAI()

completion = client.responses.create(
    model="gpt-4o",
    instructions="You are a patient maths tutor. Keep answers short.",
    input=[
        {"role": "user", "content": "What is a prime number?"},
        {"role": "assistant", "content": "A whole number above 1 whose only divisors are 1 and itself."},
        {"role": "user", "content": "Is 51 one?"},
    ],
    max_output_tokens=200,
)

print(completion.output_text)
