"""Streamlit's chat tutorial as it was written before `st.write_stream`, with the questions a
user types scripted: each answer is drawn into a placeholder chunk by chunk, with a cursor, then
drawn whole."""

import streamlit as st
from openai import OpenAI

client = OpenAI()
messages: list = []

for prompt in ["What is a haiku?", "Write one about rain."]:
    messages.append({"role": "user", "content": prompt})
    with st.chat_message("user"):
        st.markdown(prompt)
    with st.chat_message("assistant"):
        message_placeholder = st.empty()
        full_response = ""
        for event in client.responses.create(
            model="gpt-4o-mini",
            input=[{"role": m["role"], "content": m["content"]} for m in messages],
            stream=True,
        ):
            if event.type == "response.output_text.delta":
                full_response += event.delta
                message_placeholder.markdown(full_response + "▌")
        message_placeholder.markdown(full_response)
    messages.append({"role": "assistant", "content": full_response})

print(f"{len(messages)} messages")
