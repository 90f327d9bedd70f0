"""A team's client: OpenAI's, subclassed to set its defaults in one place."""

from openai import OpenAI


class TeamClient(OpenAI):
    def __init__(self, **kwargs):
        super().__init__(timeout=30, max_retries=1, **kwargs)


def translate(client: TeamClient, text: str) -> str:
    completion = client.responses.create(
        model="gpt-4o-mini",
        instructions="Translate to French.",
        input=text,
    )
    return completion.output_text or ""


if __name__ == "__main__":
    print(translate(TeamClient(), "Good morning"))
