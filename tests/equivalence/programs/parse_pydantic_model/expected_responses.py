"""Extract a calendar event into a Pydantic model with chat.completions.parse."""

from typing import List

from openai import OpenAI
from pydantic import BaseModel


class Participant(BaseModel):
    name: str
    role: str


class CalendarEvent(BaseModel):
    name: str
    date: str
    participants: List[Participant]


def main() -> None:
    client = OpenAI()
    completion = client.responses.parse(
        model="gpt-4o-2024-08-06",
        instructions="Extract the event information.",
        input="Alice presents and Bob hosts the science fair on Friday.",
        text_format=CalendarEvent,
    )
    event = completion.output_parsed
    if event is None:
        print("no event")
        return
    print(f"{event.name} on {event.date}")
    for participant in event.participants:
        print(f"  {participant.name} ({participant.role})")
    print("raw:", completion.output_text)


if __name__ == "__main__":
    main()
