"""The cookbook's way to handle rate limits: a retrying wrapper that passes its keyword arguments
on to the SDK, called with the request's parameters."""

from openai import OpenAI
from tenacity import retry, stop_after_attempt, wait_random_exponential

client = OpenAI()


@retry(wait=wait_random_exponential(min=1, max=60), stop=stop_after_attempt(6))
def completion_with_backoff(**kwargs):
    return client.chat.completions.create(**kwargs)


def ask(question, **options):
    response = client.chat.completions.create(model="gpt-4o-mini", messages=[{"role": "user", "content": question}], **options)
    return response.choices[0].message.content


story = completion_with_backoff(model="gpt-4o-mini", messages=[{"role": "user", "content": "Once upon a time,"}], max_tokens=60)
print(story.choices[0].message.content)
print(f"{story.usage.prompt_tokens} tokens in, {story.usage.completion_tokens} out")
print(ask("Name a colour.", temperature=0.2))
print(ask("Name a fruit.", max_completion_tokens=40))
