"""Use the SDK the way the bench's programs do, once, inside the preloaded interpreter.

Each program forked from that interpreter then inherits what its own first calls would otherwise
pay for (about a second per program): the lazily imported API resources and stream helpers, the
TLS setup of the HTTP transport, and the pydantic schemas the SDK builds the first time a union
field (instructions, tools, tool_choice, text.format, output items, tool calls...) holds a value.
Prints nothing. ``scenario.json`` beside it holds the turns, in the order the calls below use them.
"""

import asyncio

from openai import AsyncOpenAI, OpenAI

MODEL = "warm-up"
PARAMETERS = {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}
CHAT_TOOLS = [{"type": "function", "function": {"name": "lookup", "parameters": PARAMETERS}}]
TOOLS = [{"type": "function", "name": "lookup", "parameters": PARAMETERS, "strict": False}]
JSON_FORMAT = {"type": "json_schema", "name": "answer", "schema": PARAMETERS}
MESSAGES = [{"role": "system", "content": "Warm up."}, {"role": "user", "content": "Warm up, in JSON."}]


def chat(client: OpenAI) -> None:
    called = client.chat.completions.create(model=MODEL, messages=MESSAGES, tools=CHAT_TOOLS, max_tokens=16)  # tool_calls
    call = called.choices[0].message.tool_calls[0]
    history = [*MESSAGES, called.choices[0].message, {"role": "tool", "tool_call_id": call.id, "content": "ok"}]
    client.chat.completions.create(model=MODEL, messages=history, response_format={"type": "json_object"})  # json
    for _ in client.chat.completions.create(
        model=MODEL, messages=MESSAGES, stream=True, stream_options={"include_usage": True}
    ):  # text
        pass
    with client.chat.completions.stream(model=MODEL, messages=MESSAGES) as stream:  # text
        stream.get_final_completion()
    client.chat.completions.with_raw_response.create(model=MODEL, messages=MESSAGES).parse()  # refusal
    client.completions.create(model=MODEL, prompt="Warm up.")  # text


def responses(client: OpenAI) -> None:
    called = client.responses.create(
        model=MODEL, instructions="Warm up.", input="Warm up.", tools=TOOLS, tool_choice="auto", max_output_tokens=16
    )  # tool_calls
    answer = {"type": "function_call_output", "call_id": called.output[0].call_id, "output": "ok"}
    client.responses.create(model=MODEL, input=[*MESSAGES, *called.output, answer], text={"format": JSON_FORMAT})  # json
    for _ in client.responses.create(model=MODEL, instructions="Warm up.", input="Warm up.", stream=True):  # truncated
        pass
    with client.responses.stream(model=MODEL, input="Warm up.", tools=TOOLS) as stream:  # tool_calls
        stream.get_final_response()
    client.responses.with_raw_response.create(model=MODEL, input=MESSAGES).parse()  # refusal


async def both_async() -> None:
    async with AsyncOpenAI() as client:
        await client.chat.completions.create(model=MODEL, messages=MESSAGES)  # text
        async for _ in await client.responses.create(model=MODEL, input="Warm up.", stream=True):  # text
            pass


def main() -> None:
    with OpenAI() as client:
        chat(client)
        responses(client)
    asyncio.run(both_async())


if __name__ == "__main__":
    main()
