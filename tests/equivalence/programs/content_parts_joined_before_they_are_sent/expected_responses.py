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


def describe(url: str) -> str:
    content = [{"type": "text", "text": "What is in this image?"}]
    content += [{"type": "image_url", "image_url": {"url": url, "detail": "low"}}]
    r = client.responses.create(model="gpt-4o", input=[{"role": "user", "content": _responses_content(content)}])
    return r.output_text or ""


def compare(first: str, second: str) -> str:
    images = [{"type": "image_url", "image_url": {"url": url}} for url in (first, second)]
    r = client.responses.create(
        model="gpt-4o",
        instructions="Answer in one sentence.",
        input=[
            {"role": "user", "content": _responses_content([{"type": "text", "text": "Compare these."}] + images)},
        ],
    )
    return r.output_text or ""


print(describe("https://example.com/cat.png"))
print(compare("https://example.com/cat.png", "https://example.com/dog.png"))
