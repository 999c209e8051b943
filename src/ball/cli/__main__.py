from ball.cli import main

main()
