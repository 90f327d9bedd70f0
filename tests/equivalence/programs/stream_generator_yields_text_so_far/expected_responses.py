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
    # migrator: `yield partial_message` no longer yields the same text again for the chunks without text
    response = client.responses.create(model="gpt-4o-mini", input=messages, stream=True)
    partial_message = ""
    for event in response:
        if event.type == "response.output_text.delta":
            partial_message = partial_message + event.delta
            yield partial_message


shown = ""
for shown in predict("Tell me a joke.", [("Hi", "Hello! How can I help?")]):
    pass
print(shown)
