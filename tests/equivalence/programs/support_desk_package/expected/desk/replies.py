from desk.llm import MODEL, make_client


def draft_reply(ticket: str, label: str) -> tuple[str, int]:
    client = make_client()
    response = client.responses.create(
        model=MODEL,
        instructions=f"You answer {label} tickets politely.",
        input=ticket,
    )
    return response.output_text or "", response.usage.output_tokens
