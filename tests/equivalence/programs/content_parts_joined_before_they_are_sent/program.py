from openai import OpenAI

client = OpenAI()


def describe(url: str) -> str:
    content = [{"type": "text", "text": "What is in this image?"}]
    content += [{"type": "image_url", "image_url": {"url": url, "detail": "low"}}]
    r = client.chat.completions.create(model="gpt-4o", messages=[{"role": "user", "content": content}])
    return r.choices[0].message.content or ""


def compare(first: str, second: str) -> str:
    images = [{"type": "image_url", "image_url": {"url": url}} for url in (first, second)]
    r = client.chat.completions.create(
        model="gpt-4o",
        messages=[
            {"role": "system", "content": "Answer in one sentence."},
            {"role": "user", "content": [{"type": "text", "text": "Compare these."}] + images},
        ],
    )
    return r.choices[0].message.content or ""


print(describe("https://example.com/cat.png"))
print(compare("https://example.com/cat.png", "https://example.com/dog.png"))
