from .llm import MODEL, client

LABELS = ("billing", "bug", "other")


def triage(ticket: str) -> str:
    completion = client.chat.completions.create(
        model=MODEL,
        messages=[
            {"role": "system", "content": f"Answer with one of: {', '.join(LABELS)}."},
            {"role": "user", "content": ticket},
        ],
        max_tokens=20,
        temperature=0,
    )
    label = (completion.choices[0].message.content or "").strip().lower()
    return label if label in LABELS else "other"
