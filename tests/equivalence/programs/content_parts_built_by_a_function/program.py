"""Content parts built by a function and passed as a message's content; a text passed the same way."""

from openai import OpenAI

client = OpenAI()


def build_content(url: str, detail: str = "") -> list:
    image: dict = {"url": url}
    if detail:
        image["detail"] = detail
    return [{"type": "text", "text": "What is in this picture?"}, {"type": "image_url", "image_url": image}]


def with_file(file_id: str) -> list:
    return [{"type": "file", "file": {"file_id": file_id}}, {"type": "text", "text": "Summarise this file."}]


def ask(content) -> str:
    response = client.chat.completions.create(
        model="gpt-4o-mini",
        messages=[{"role": "system", "content": "Answer in one sentence."}, {"role": "user", "content": content}],
    )
    return response.choices[0].message.content or ""


print(ask(build_content("https://example.com/cat.png")))
print(ask(build_content("https://example.com/dog.png", detail="low")))
print(ask("What is a lighthouse for?"))
print(ask(with_file("file-abc123")))


def summarise(file_id: str) -> str:
    response = client.chat.completions.create(
        model="gpt-4o-mini",
        messages=[{"role": "user", "content": [{"type": "file", "file": {"file_id": file_id, "filename": "report.pdf"}}, {"type": "text", "text": "Summarise it."}]}],
    )
    return response.choices[0].message.content or ""


print(summarise("file-def456"))
