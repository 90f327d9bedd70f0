from openai import OpenAI

client = OpenAI()


def ask_chatgpt(prompt, *, system_prompt=None, response_format=None):
    messages: list = []
    if system_prompt:
        messages.append({"role": "system", "content": system_prompt})
    messages.append({"role": "user", "content": prompt})
    if response_format:
        response = client.chat.completions.create(model="gpt-4.1-mini", messages=messages, response_format=response_format)
    else:
        response = client.chat.completions.create(model="gpt-4.1-mini", messages=messages)
    return (response.choices[0].message.content or "").strip()
