from desk.llm import MODEL, make_client


def draft_reply(ticket: str, label: str) -> tuple[str, int]:
    client = make_client()
    response = client.chat.completions.create(
        model=MODEL,
        messages=[
            {"role": "system", "content": f"You answer {label} tickets politely."},
            {"role": "user", "content": ticket},
        ],
    )
    return response.choices[0].message.content or "", response.usage.completion_tokens
