"""Streamlit's chat tutorial, with the questions a user types scripted: each answer is streamed
to the page and kept in the history sent with the next question."""

import streamlit as st
from openai import OpenAI

client = OpenAI()
messages: list = []

for prompt in ["What is a haiku?", "Write one about rain."]:
    messages.append({"role": "user", "content": prompt})
    with st.chat_message("user"):
        st.markdown(prompt)
    with st.chat_message("assistant"):
        stream = client.chat.completions.create(
            model="gpt-4o-mini",
            messages=[{"role": m["role"], "content": m["content"]} for m in messages],
            stream=True,
        )
        response = st.write_stream(stream)
    messages.append({"role": "assistant", "content": response})

print(f"{len(messages)} messages, the last one {len(messages[-1]['content'])} characters long")
