"""A chat UI's generator (Gradio's ChatInterface calls it): it yields the answer so far after each
piece of text, and the UI shows the last thing yielded."""

from openai import OpenAI

client = OpenAI()


def predict(message, history):
    messages = []
    for human, assistant in history:
        messages.append({"role": "user", "content": human})
        messages.append({"role": "assistant", "content": assistant})
    messages.append({"role": "user", "content": message})
    response = client.chat.completions.create(model="gpt-4o-mini", messages=messages, stream=True)
    partial_message = ""
    for chunk in response:
        if chunk.choices[0].delta.content is not None:
            partial_message = partial_message + chunk.choices[0].delta.content
            yield partial_message


shown = ""
for shown in predict("Tell me a joke.", [("Hi", "Hello! How can I help?")]):
    pass
print(shown)
