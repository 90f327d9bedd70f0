"""Content parts built by a function and passed as a message's content; a text passed the same way."""

from typing import Any

from openai import OpenAI


def _responses_content(content: Any) -> Any:
    """Chat Completions message content in the Responses shape: a text as it is, parts as input
    parts (`text` as `input_text`, `image_url` as `input_image`, its `detail` "auto" if not given,
    `file` as `input_file`)."""
    if not isinstance(content, (list, tuple)):
        return content
    parts = []
    for part in content:
        image = part.get("image_url") if part.keys() == {"type", "image_url"} and part["type"] == "image_url" else None
        if part.keys() == {"type", "text"} and part["type"] == "text":
            parts.append({"type": "input_text", "text": part["text"]})
        elif isinstance(image, dict) and "url" in image and image.keys() <= {"url", "detail"}:
            parts.append({"type": "input_image", "image_url": image["url"], "detail": image.get("detail", "auto")})
        elif part.keys() == {"type", "file"} and part["type"] == "file" and part["file"] and part["file"].keys() <= {"file_data", "file_id", "filename"}:
            parts.append({"type": "input_file", **part["file"]})
        else:
            raise ValueError(f"a {part.get('type')!r} content part has no Responses shape the migration knows: convert it by hand")
    return parts


client = OpenAI()


def build_content(url: str, detail: str = "") -> list:
    image: dict = {"url": url}
    if detail:
        image["detail"] = detail
    return [{"type": "text", "text": "What is in this picture?"}, {"type": "image_url", "image_url": image}]


def with_file(file_id: str) -> list:
    return [{"type": "file", "file": {"file_id": file_id}}, {"type": "text", "text": "Summarise this file."}]


def ask(content) -> str:
    response = client.responses.create(
        model="gpt-4o-mini",
        instructions="Answer in one sentence.",
        input=[{"role": "user", "content": _responses_content(content)}],
    )
    return response.output_text or ""


print(ask(build_content("https://example.com/cat.png")))
print(ask(build_content("https://example.com/dog.png", detail="low")))
print(ask("What is a lighthouse for?"))
print(ask(with_file("file-abc123")))


def summarise(file_id: str) -> str:
    response = client.responses.create(
        model="gpt-4o-mini",
        input=[{"role": "user", "content": [{"type": "input_file", "file_id": file_id, "filename": "report.pdf"}, {"type": "input_text", "text": "Summarise it."}]}],
    )
    return response.output_text or ""


print(summarise("file-def456"))
