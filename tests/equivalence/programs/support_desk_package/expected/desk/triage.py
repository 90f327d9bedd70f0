from .llm import MODEL, client

LABELS = ("billing", "bug", "other")


def triage(ticket: str) -> str:
    completion = client.responses.create(
        model=MODEL,
        instructions=f"Answer with one of: {', '.join(LABELS)}.",
        input=ticket,
        max_output_tokens=20,
        temperature=0,
    )
    label = (completion.output_text or "").strip().lower()
    return label if label in LABELS else "other"
