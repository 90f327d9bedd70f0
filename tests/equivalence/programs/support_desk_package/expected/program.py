from desk.replies import draft_reply
from desk.triage import triage

TICKETS = [
    "I was charged twice this month.",
    "The export button crashes the app.",
]

for ticket in TICKETS:
    label = triage(ticket)
    reply, tokens = draft_reply(ticket, label)
    print(f"[{label}] {reply} ({tokens} tokens)")
