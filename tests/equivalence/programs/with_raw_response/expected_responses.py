"""Log the rate-limit headers of a call, then use its parsed body."""

from openai import OpenAI


def main() -> None:
    client = OpenAI()
    raw = client.responses.with_raw_response.create(
        model="gpt-4o-mini",
        input="Give me a name for a grey cat.",
    )
    print("request id:", raw.headers.get("x-request-id"))
    print("requests left:", raw.headers.get("x-ratelimit-remaining-requests"))
    completion = raw.parse()
    print("name:", completion.output_text)


if __name__ == "__main__":
    main()
