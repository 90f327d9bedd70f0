from answers.ask import ask

response = ask("Why is the sky blue?")
print(response.output_text)
print("tokens:", response.usage.input_tokens, response.usage.output_tokens)
