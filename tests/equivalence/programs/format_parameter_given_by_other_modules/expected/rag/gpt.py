from openai import OpenAI

client = OpenAI()


def ask_chatgpt(prompt, *, system_prompt=None, response_format=None):
    messages: list = []
    if system_prompt:
        messages.append({"role": "system", "content": system_prompt})
    messages.append({"role": "user", "content": prompt})
    if response_format:
        response = client.responses.create(model="gpt-4.1-mini", input=messages, text={"format": response_format})
    else:
        response = client.responses.create(model="gpt-4.1-mini", input=messages)
    return (response.output_text or "").strip()
