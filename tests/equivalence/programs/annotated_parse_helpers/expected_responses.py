"""Helpers annotated with the Chat Completions types return a parsed invoice."""

from typing import List, Optional

from openai import OpenAI
from pydantic import BaseModel
from openai.types.responses import ParsedResponse, ResponseInputItemParam

client = OpenAI()


class Line(BaseModel):
    item: str
    amount: float


class Invoice(BaseModel):
    customer: str
    lines: List[Line]


def extract(text: str) -> ParsedResponse[Invoice]:
    messages: List[ResponseInputItemParam] = [
        {"role": "system", "content": "Extract the invoice."},
        {"role": "user", "content": text},
    ]
    return client.responses.parse(model="gpt-4o-mini", input=messages, text_format=Invoice)


def invoice_of(text: str) -> Optional[Invoice]:
    completion = extract(text)
    return completion.output_parsed


def main() -> None:
    invoice = invoice_of("Two coffees for Ada, 3.50 each, and a croissant at 2.20.")
    if invoice is None:
        print("nothing parsed")
        return
    print(invoice.customer)
    for line in invoice.lines:
        print(f"  {line.item}: {line.amount:.2f}")
    print(f"total: {sum(line.amount for line in invoice.lines):.2f}")


if __name__ == "__main__":
    main()
