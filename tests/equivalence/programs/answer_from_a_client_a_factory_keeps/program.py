from answers.ask import ask

response = ask("Why is the sky blue?")
print(response.choices[0].message.content)
print("tokens:", response.usage.prompt_tokens, response.usage.completion_tokens)
