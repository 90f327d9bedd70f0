"""The cookbook's way to handle rate limits: a retrying wrapper that passes its keyword arguments
on to the SDK, called with the request's parameters."""

from openai import OpenAI
from tenacity import retry, stop_after_attempt, wait_random_exponential

client = OpenAI()


@retry(wait=wait_random_exponential(min=1, max=60), stop=stop_after_attempt(6))
def completion_with_backoff(**kwargs):
    return client.responses.create(**kwargs)


def ask(question, **options):
    response = client.responses.create(model="gpt-4o-mini", input=question, **options)
    return response.output_text


story = completion_with_backoff(model="gpt-4o-mini", input="Once upon a time,", max_output_tokens=60)
print(story.output_text)
print(f"{story.usage.input_tokens} tokens in, {story.usage.output_tokens} out")
print(ask("Name a colour.", temperature=0.2))
print(ask("Name a fruit.", max_output_tokens=40))
